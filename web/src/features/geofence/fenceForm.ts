/**
 * The fence form: a name and 1 to 10 areas, each typed as text (a circle's centre and radius, a
 * polygon's points one "lat, lon" a line) or filled by clicks on the map, checked by the server's
 * rules (src/core/geofences/model.py) and turned into what the server takes.
 */
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { FENCE_LIMITS, type Area, type Fence, type FenceInput, type Point } from './api/fences';

export interface AreaForm {
  shape: 'circle' | 'polygon';
  lat: string;
  lon: string;
  radius: string;
  /** One "lat, lon" a line. */
  points: string;
}

export interface FenceForm {
  name: string;
  areas: AreaForm[];
}

export const emptyArea = (shape: AreaForm['shape']): AreaForm => ({ shape, lat: '', lon: '', radius: '', points: '' });

const coordinate = (value: number) => String(Math.round(value * 1e6) / 1e6);

export const pointsText = (points: readonly Point[]) =>
  points.map((p) => `${coordinate(p.lat)}, ${coordinate(p.lon)}`).join('\n');

export function formOf(fence: Fence | null): FenceForm {
  if (!fence) return { name: '', areas: [emptyArea('circle')] };
  return {
    name: fence.name,
    areas: fence.areas.map((a) => a.shape === 'circle'
      ? { shape: 'circle', lat: coordinate(a.lat ?? 0), lon: coordinate(a.lon ?? 0), radius: String(a.radius ?? ''), points: '' }
      : { ...emptyArea('polygon'), points: pointsText(a.points ?? []) }),
  };
}

/** A number typed with a point or a comma; null when it is not one. */
export function numberOf(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(trimmed)) return null;
  return Number(trimmed);
}

/** "lat, lon" (or "lat lon" or "lat;lon") lines; null when a line is not a point. */
export function parsePoints(text: string): Point[] | null {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const points: Point[] = [];
  for (const line of lines) {
    const parts = line.split(/\s*[,;\s]\s*/).filter(Boolean);
    const [lat, lon] = parts.map((p) => numberOf(p));
    if (parts.length !== 2 || lat == null || lon == null) return null;
    points.push({ lat, lon });
  }
  return points;
}

const latOk = (v: number | null): v is number => v !== null && v >= -90 && v <= 90;
const lonOk = (v: number | null): v is number => v !== null && v >= -180 && v <= 180;

/** The area as the server takes it, or the reason it is not one yet. */
export function areaOf(t: TFunction, form: AreaForm): Area | string {
  if (form.shape === 'circle') {
    const lat = numberOf(form.lat);
    const lon = numberOf(form.lon);
    const radius = numberOf(form.radius);
    if (!latOk(lat)) return t('error.latitude');
    if (!lonOk(lon)) return t('error.longitude');
    if (radius === null || radius <= 0 || radius > FENCE_LIMITS.radius) return t('error.radius', { max: FENCE_LIMITS.radius });
    return { shape: 'circle', lat, lon, radius, points: [] };
  }
  const points = parsePoints(form.points);
  if (points === null) return t('error.points');
  if (points.length < 3 || points.length > FENCE_LIMITS.vertices) return t('error.vertices', { max: FENCE_LIMITS.vertices });
  if (!points.every((p) => latOk(p.lat) && lonOk(p.lon))) return t('error.points');
  return { shape: 'polygon', lat: null, lon: null, radius: null, points };
}

/** The form's rules, in the reader's language: errors at `name`, `areas` and `areas.<i>`. */
export function fenceFormSchema(t: TFunction) {
  return z
    .object({
      name: z.string().trim().min(1, t('error.name'))
        .refine((v) => [...v].length <= FENCE_LIMITS.name, t('error.nameLength', { max: FENCE_LIMITS.name })),
      areas: z.array(z.custom<AreaForm>())
        .min(1, t('error.areas'))
        .max(FENCE_LIMITS.areas, t('error.tooManyAreas', { max: FENCE_LIMITS.areas })),
    })
    .superRefine((form, ctx) => {
      form.areas.forEach((area, index) => {
        const parsed = areaOf(t, area);
        if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', path: ['areas', index], message: parsed });
      });
    })
    .transform((form): FenceInput => ({ name: form.name, areas: form.areas.map((a) => areaOf(t, a) as Area) }));
}

/** The problems of a form by where they are (`name`, `areas`, `areas.0`...). */
export function checkFence(t: TFunction, form: FenceForm): { input: FenceInput } | { problems: Record<string, string> } {
  const result = fenceFormSchema(t).safeParse(form);
  if (result.success) return { input: result.data };
  return { problems: Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message])) };
}
