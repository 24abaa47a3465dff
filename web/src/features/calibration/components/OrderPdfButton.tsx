import { Button } from '@blueprintjs/core';
import { DocumentIcon } from '@blueprintjs/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { downloadOrderPdf, isPdf, refOf, type Application } from '@/lib/api/calibration';
import { notify } from '@/lib/notify';
import { saveFile } from '@/lib/saveFile';

/** Saves the application's order form (a PDF; anything else is refused as 'file failed'). */
export function OrderPdfButton({ application }: { application: Application }) {
  const { t } = useTranslation('calibration');
  const download = useMutation({
    mutationFn: () => downloadOrderPdf(refOf(application)),
    onSuccess: (pdf) => {
      if (!isPdf(pdf)) notify.error(t('mobile.fileFailed'));
      else saveFile(pdf.blob, pdf.fileName ?? `${application.applicationNumber}.pdf`);
    },
    onError: () => notify.error(t('mobile.fileFailed')),
  });
  return (
    <Button variant="minimal" icon={<DocumentIcon />} text={t('preview.orderPdf')} data-testid="calibration-order-pdf"
      loading={download.isPending} onClick={() => download.mutate()} />
  );
}
