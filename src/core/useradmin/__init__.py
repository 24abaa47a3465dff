"""User administration (issue 17, /operation/consumer/list and role): the back office's view of
every account, its system role and account type (personal, enterprise, engineer/contractor,
dealer, back office), soft deletion, passwords reset by the system, the upgrade to enterprise and
the contractor application with its certification.

A context of its own, beside accounts: accounts is what a person does to their own account; this
is what an operator does to anyone's, with its own rules (back-office accounts are a system
administrator's; nobody deletes themselves nor the last system administrator).

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
