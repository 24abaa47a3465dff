"""Organizations: teams that own devices, their members and roles, and the invitations that make
an account a member once the invitee approves them in the message centre.

Public to other contexts: `model` and `ports`, and `invitations` (the answer handler the inbox
calls through its AnswerHandler port, wired by the container, so neither context imports the
other's use cases).
"""

__all__ = ["model", "ports", "invitations"]
