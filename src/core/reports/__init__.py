"""Scheduled reports (issue 16, the data centre's scheduled backup): an account's schedules that
e-mail each chosen device's readings of the last day, week or month as files of the download
centre.

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
