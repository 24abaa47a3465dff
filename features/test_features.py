"""Runs every feature file under features/ (on SQLite and PostgreSQL)."""

from pytest_bdd import scenarios

scenarios("session", "accounts", "alarms", "assets", "audit", "geofences", "pricing", "ordering", "payments",
          "onboarding", "organizations", "teams", "backoffice", "waybills", "calibration", "fda")
