"""The sandbox server: each provider's API under /<provider>, and the payer page."""

from __future__ import annotations

import re
from html import escape

from flask import Flask, abort, redirect, request

from payment_sandbox.ledger import Ledger, Status
from payment_sandbox.provider import SandboxConfig, SandboxContext, SandboxProvider
from payment_sandbox.providers import all_providers

__all__ = ["SandboxConfig", "create_sandbox_app"]

PAGE = """<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>{title}</title>
<body style="font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1c2127">
<p style="color:#5f6b7c;text-transform:uppercase;letter-spacing:.08em;font-size:.75rem">{provider} sandbox</p>
{content}</body></html>"""


def _page(provider: str, title: str, content: str) -> str:
    return PAGE.format(title=escape(title), provider=escape(provider), content=content)


def _amount(cents: int, currency: str) -> str:
    return f"{currency} {cents // 100}.{cents % 100:02d}"


def create_sandbox_app(config: SandboxConfig, providers: list[SandboxProvider] | None = None,
                       context: SandboxContext | None = None) -> Flask:
    """`providers` default to all four, built from the config; give the `context` they were built
    with when building them yourself (a test of one provider)."""
    app = Flask("payment_sandbox")
    context = context or SandboxContext(Ledger(), config.public_url)
    if providers is None:
        providers = all_providers(context, config)
    by_name = {p.name: p for p in providers}
    context.providers.update(by_name)
    for provider in providers:
        app.register_blueprint(provider.blueprint(), url_prefix=f"/{provider.name}")
    app.extensions["payment_sandbox"] = context

    def _payment(name: str, payment_id: str):
        payment = context.ledger.get(payment_id)
        if name not in by_name or payment is None or payment.provider != name:
            abort(404)
        return by_name[name], payment

    def settled_page(name: str, payment) -> str:
        return _page(name, "Payment", f"<h1>This payment is {escape(payment.status.value)}</h1>")

    @app.get("/pay/<name>/<payment_id>")
    def payer_page(name: str, payment_id: str):
        _, payment = _payment(name, payment_id)
        if payment.status is not Status.PENDING:
            return settled_page(name, payment)
        buttons = ('<form method="post" style="display:flex;gap:.75rem;margin-top:2rem">'
                   '<button name="outcome" value="pay" style="flex:1;padding:.8rem;font-size:1rem;'
                   'background:#238551;color:#fff;border:0;border-radius:4px">Pay</button>'
                   '<button name="outcome" value="fail" style="flex:1;padding:.8rem;font-size:1rem;'
                   'background:#fff;color:#ac2f33;border:1px solid #ac2f33;border-radius:4px">Fail</button></form>')
        content = (f"<h1 style=\"font-size:2rem;margin:.2rem 0\">{_amount(payment.amount_cents, payment.currency)}"
                   f"</h1><p>{escape(payment.description)}</p><p style=\"color:#5f6b7c\">Order "
                   f"{escape(payment.order_code)}</p>{buttons}")
        return _page(name, "Pay", content)

    @app.post("/pay/<name>/<payment_id>")
    def pay(name: str, payment_id: str):
        provider, payment = _payment(name, payment_id)
        outcome = request.form.get("outcome", "")
        if outcome not in ("pay", "fail", "pay-silently"):
            abort(409)
        if payment.status is not Status.PENDING:  # paid meanwhile (another window): say so, as a provider would
            return settled_page(name, payment), 409
        currency = request.form.get("currency", "").upper()
        if currency and currency != payment.currency:
            # For tests of the merchant's checks, not on the page: the provider took the payment in
            # another currency and says so in its notification, queries and captures.
            if not re.fullmatch(r"[A-Z]{3}", currency):
                abort(400)
            payment = context.ledger.update(payment_id, currency=currency)
        paid = outcome != "fail"
        delivery = provider.complete(payment, paid, notify=outcome != "pay-silently")
        target = provider.after_payment_url(context.ledger.get(payment_id), paid)
        if target:
            return redirect(target, code=303)
        verdict = "Paid" if paid else "Payment failed"
        answer = "" if delivery is None else f"<p style=\"color:#5f6b7c\">The merchant answered {delivery.status}.</p>"
        return _page(name, verdict, f"<h1>{verdict}</h1>{answer}")

    @app.post("/refunds/<name>/<refund_no>")
    def finish_refund(name: str, refund_no: str):
        """Sandbox-only, as the payer page is: the provider finishes a refund it accepted, so a test
        (or a developer) decides its outcome. outcome: succeed or fail, `-silently` sending no
        notification (a lost one, for the merchant's own query to find)."""
        outcome = request.form.get("outcome", "")
        if name not in by_name or outcome not in ("succeed", "fail", "succeed-silently", "fail-silently"):
            abort(404 if name not in by_name else 400)
        try:
            delivery = by_name[name].finish_refund(refund_no, outcome.startswith("succeed"),
                                                   notify=not outcome.endswith("-silently"))
        except KeyError:
            abort(404)
        except ValueError:  # the provider's refunds cannot end so (Alipay's are final when answered)
            abort(409)
        return {"notified": delivery is not None, "merchantStatus": delivery.status if delivery else None,
                "merchantAnswer": delivery.body if delivery else None}

    @app.post("/merchants/wechat")
    def add_wechat_merchant():
        """Sandbox-only: WeChat Pay knows another merchant (a white-label platform's own account,
        as its console page sets it): appId, mchId, apiKey."""
        form = request.form
        if "wechat" not in by_name or not all(form.get(k) for k in ("appId", "mchId", "apiKey")):
            abort(400)
        by_name["wechat"].add_merchant(form["appId"], form["mchId"], form["apiKey"])  # type: ignore[attr-defined]
        return {"merchant": form["mchId"]}

    @app.get("/health")
    def health():
        return {"status": "ok", "providers": sorted(by_name)}

    return app
