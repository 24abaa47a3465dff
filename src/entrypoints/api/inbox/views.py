"""The message centre's system messages (invitations, expiry reminders, exports ready, payment
results) and which of them also go by e-mail or SMS. Each account reads and answers only its own."""

from __future__ import annotations

from flask.views import MethodView
from marshmallow import fields

from adapters.notifications.templates import SUBJECTS, TEMPLATES, render_template
from core.inbox.model import Decision, InboxQuery, MessageKind, SystemMessage
from core.notifications.model import Channel
from core.shared import errors as e
from entrypoints.api import context
from entrypoints.api.framework import ApiBlueprint, page_body, page_of, page_request
from entrypoints.api.inbox import schemas as s

blp = ApiBlueprint("inbox", __name__, description="System messages")


# Where the web client links a message of a kind to: the page that acts on it.
TARGETS = {MessageKind.EXPORT: s.TARGET_DOWNLOADS}


def _row(message: SystemMessage) -> dict:
    translate, language = context.container().translator().translate, context.language.get()
    template = TEMPLATES.get(message.template)
    subject = SUBJECTS.get(message.template)
    content = render_template(translate, template, language, message.params) if template else message.template
    return {"messageId": message.id, "kind": message.kind.value,
            "title": render_template(translate, subject, language, message.params) if subject else content,
            "content": content, "target": TARGETS.get(message.kind), "createdAt": message.created_at,
            "read": message.read,
            "needsDecision": message.needs_decision,
            "decision": message.decision.value if message.decision else None, "decidedAt": message.decided_at}



@blp.route("/BaseMessage/page")
class MessagePageView(MethodView):
    @blp.arguments(s.MessagePageQuery)
    @blp.ok(page_of(s.SystemMessageSchema))
    def post(self, body):
        """The caller's system messages, newest first, in the request's language; filters: kind and
        unread only."""
        kind = MessageKind(body["kind"]) if "kind" in body else None
        listing = context.container().list_system_messages()(
            context.caller_id(), InboxQuery(kind, body["unread"]), page_request(body))
        return page_body(listing.page, _row)


@blp.route("/BaseMessage/unreadCount")
class UnreadCountView(MethodView):
    @blp.ok(fields.Integer(required=True, metadata={"description": "the caller's unread system messages"}),
            name="UnreadMessageCount")
    def get(self):
        """How many of the caller's system messages are unread, for the header badge."""
        listing = context.container().list_system_messages()(context.caller_id(), InboxQuery(unread_only=True),
                                                             page_request({"start": 1, "pageSize": 1}))
        return listing.unread


@blp.route("/BaseMessage/read")
class MarkReadView(MethodView):
    @blp.arguments(s.ReadSchema)
    @blp.ok(s.ReadResultSchema)
    def post(self, body):
        """Mark the caller's messages read (all of them when messageIds is absent); ids of messages
        that are not the caller's change nothing."""
        return {"marked": context.container().mark_messages_read()(context.caller_id(), body.get("messageIds"))}


@blp.route("/BaseMessage/answer")
class AnswerView(MethodView):
    @blp.arguments(s.AnswerSchema)
    @blp.ok(s.SystemMessageSchema, refusals=(e.MessageAlreadyAnswered, e.MessageNeedsNoAnswer))
    def post(self, body):
        """Approve or reject what a message asks (an invitation); the first answer is recorded and
        stands, a second one is refused (409, code 1631). Another account's message is 404."""
        return _row(context.container().answer_message()(context.caller_id(), body["messageId"],
                                                         Decision(body["decision"])))


def _channel_rows(channels: dict[MessageKind, frozenset[Channel]]) -> list[dict]:
    return [{"kind": kind.value, "email": Channel.EMAIL in chosen, "phone": Channel.PHONE in chosen}
            for kind, chosen in channels.items()]


@blp.route("/BaseMessage/channels")
class ChannelsView(MethodView):
    @blp.ok(s.ChannelChoiceSchema, many=True)
    def get(self):
        """For each kind of system message, whether it also goes to the caller by e-mail and by SMS."""
        return _channel_rows(context.container().message_channels()(context.caller_id()))

    @blp.arguments(s.ChannelsSchema)
    @blp.ok(s.ChannelChoiceSchema, many=True)
    def post(self, body):
        """Choose, per kind, whether system messages also go by e-mail and by SMS; kinds not listed
        keep their choice."""
        chosen = {MessageKind(c["kind"]): frozenset(ch for ch, on in ((Channel.EMAIL, c["email"]),
                                                                       (Channel.PHONE, c["phone"])) if on)
                  for c in body["channels"]}
        container = context.container()
        container.set_message_channels()(context.caller_id(), chosen)
        return _channel_rows(container.message_channels()(context.caller_id()))
