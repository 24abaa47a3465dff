"""Payment processes assembled from the container: the periodic reconciliation a server runs.
(The local payment sandbox, a development tool, is served by entrypoints/local_sandbox.py.)"""

from __future__ import annotations

import logging
import threading

from entrypoints.container import Container

log = logging.getLogger("coldchain.payments")
RECONCILE_EVERY_S = 60.0


class PeriodicReconciliation:
    """Asks the providers about orders whose notification has not come, every minute."""

    def __init__(self, container: Container, every_s: float = RECONCILE_EVERY_S) -> None:
        self._container, self._every_s = container, every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="payment-reconciliation", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        while not self._stop.wait(self._every_s):
            try:
                outcome = self._container.reconcile_payments()()
                if outcome.settled or outcome.closed or outcome.failed:
                    log.info("reconciliation: %s", outcome)
            except Exception:  # the next round tries again
                log.exception("reconciliation failed")
