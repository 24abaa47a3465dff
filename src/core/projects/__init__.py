"""Projects (issue 17, /project/list): an account's named groups of devices (a cold room's
loggers, a customer's fleet), each device in at most one.

A project belongs to the account that made it. Organizations' projects are a later slice: the
seam is `Project.owner_account_id` (an organization id beside it) and the repository's `owned`
check, which is the one place that decides whose project the caller may use.

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
