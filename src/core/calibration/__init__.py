"""Calibration (issue 21): customers, with a console account or without, order calibration
certificates for their loggers, pay, and ship them; the lab receives them, records the results,
issues ISO/IEC 17025 certificates and sends the devices back; a console device's due date follows
its certificate, and its owner is reminded before it lapses.

- model: services and prices, the application and its status ladder (TRANSITIONS), who reaches an
  application (an account, the lab, an anonymous customer by token or by number and contact);
- certificates: the certificate, its points, error, uncertainty and conformity, its versions;
- due_dates: intervals, due dates and the reminder schedule; rules: every field's rule and the
  JSON import; use_cases; ports.

Public to other contexts: `model` and `ports` (what a device's calibration is to the devices'
adapters and the jobs).
"""

__all__ = ["model", "ports"]
