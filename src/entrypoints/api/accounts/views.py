"""Session and account calls (api-contract section 3)."""

from __future__ import annotations

from flask import Response, current_app, make_response, request
from flask.views import MethodView
from marshmallow import fields

from adapters.images.account_photos import MAX_PHOTO_BYTES
from core.accounts.commands import (
    BindContact,
    ChangeBaseInfo,
    ChangeCredentials,
    ChangePreferences,
    LogIn,
    Register,
    RequestLoginCode,
    ResetPassword,
    SendCode,
    SwitchPlatform,
    UpdateProfile,
)
from core.accounts.home_tiles import HOME_TILES, MIN_TILES
from core.accounts.info import AccountInfo
from core.accounts.model import CodePurpose, IssuedToken, LoginType
from core.notifications.model import Channel
from core.permissions import roles
from core.permissions.scenes import scene_permissions
from core.shared import errors as e
from entrypoints.api import context
from entrypoints.api.accounts import schemas as s
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, Values, caller_permissions
from entrypoints.jobs.app import send as send_job

blp = ApiBlueprint("accounts", __name__, description="Session and account")
CAPTCHA_COOKIE = "jc_captcha"


def _token(issued: IssuedToken) -> dict:
    return {"token": issued.token, "expiresAt": issued.expires_at}


def _contact(body: dict) -> tuple[Channel, str]:
    return (Channel.PHONE, body["phone"]) if "phone" in body else (Channel.EMAIL, body["email"])


def _captcha_id(body: dict) -> str | None:
    return body.get("captchaId") or request.cookies.get(CAPTCHA_COOKIE)


@blp.route("/BaseAccount/login")
class LoginView(MethodView):
    @blp.public
    @blp.arguments(s.LoginSchema)
    @blp.ok(s.TokenSchema, refusals=(e.AccountDisabled, e.WrongCaptcha, e.WrongVerificationCode, e.CaptchaRequired,
                                     e.AccountProtected))
    @blp.alt_response(401, schema=ErrorEnvelope, description=f"code {e.BadCredentials.code}: wrong user name or "
                      "password, the same answer whether or not the user exists; `data.captchaRequired` says "
                      "whether the next login of this name from this address needs the image code (it is then "
                      "refused without it, 1014, for 15 minutes)")
    @blp.alt_response(429, schema=ErrorEnvelope,
                      description="this address failed for this name moments ago; see Retry-After (1 s, "
                                  "doubling with each failure, at most 5 minutes)")
    def post(self, body):
        """Log in with a user name (or phone or e-mail) and password, or with a one-time code sent by
        code/login; the token lasts 7 days. After failures the image code is needed as well."""
        container = context.container()
        try:
            return _token(container.login()(LogIn(
                user_name=body["userName"], password=body.get("accountPassword"),
                login_type=LoginType(body["loginType"]), client_address=request.remote_addr,
                captcha_id=_captcha_id(body), captcha_answer=body.get("verifyCode"),
                login_code=body.get("loginCode"), language=context.language.get(),
            )))
        except e.BadCredentials:
            send_job(context.jobs(), "deliver_messages")  # the owner's notice of failures, if one was due
            raise


@blp.route("/BaseAccount/code/login")
class LoginCodeView(MethodView):
    @blp.public
    @blp.arguments(s.LoginCodeSchema)
    @blp.ok(refusals=(e.WrongCaptcha, e.CodeSentTooOften))
    @blp.alt_response(429, schema=ErrorEnvelope, description="too many codes for this name within an hour")
    def post(self, body):
        """Send a one-time login code (6 digits, 10 minutes, once a minute) to the account's e-mail,
        else its phone. Needs the image code; answered alike whether or not the name exists."""
        container = context.container()
        container.send_login_code()(RequestLoginCode(body["userName"], _captcha_id(body), body["verifyCode"],
                                                     context.language.get(), request.remote_addr))
        send_job(context.jobs(), "deliver_messages")


@blp.route("/BaseAccount/register")
class RegisterView(MethodView):
    @blp.public
    @blp.arguments(s.RegisterSchema)
    @blp.ok(s.TokenSchema, refusals=(e.WrongVerificationCode, e.UserAlreadyExists, e.ContactAlreadyBound))
    def post(self, body):
        """Create a personal account with a code sent to the phone or e-mail; logs the user in."""
        register = context.container().register()
        channel, target = _contact(body)
        return _token(register(Register(body["userName"], body["accountPassword"], channel, target,
                                        body["code"], request.remote_addr)))


@blp.route("/BaseAccount/forgot")
class ForgotView(MethodView):
    @blp.public
    @blp.arguments(s.ForgotSchema)
    @blp.ok(refusals=(e.WrongVerificationCode,))
    def post(self, body):
        """Set a new password with a code sent to the phone or e-mail; ends every open session."""
        recover = context.container().recover_password()
        channel, target = _contact(body)
        recover(ResetPassword(channel, target, body["code"], body["accountPassword"]))


def _send_code(channel: Channel, target: str, purpose: int) -> None:
    container = context.container()
    container.send_code()(SendCode(channel, target, CodePurpose(purpose), context.language.get(),
                                   request.remote_addr))
    send_job(context.jobs(), "deliver_messages")


@blp.route("/BaseAccount/code/phone")
class PhoneCodeView(MethodView):
    @blp.public
    @blp.arguments(s.PhoneCodeQuery, location="query")
    @blp.ok(refusals=(e.ContactAlreadyBound, e.CodeSentTooOften))
    @blp.alt_response(429, schema=ErrorEnvelope, description="too many codes for this number within an hour")
    def get(self, query):
        """Send a 6-digit code by SMS, valid 10 minutes, at most one a minute."""
        _send_code(Channel.PHONE, query["phone"], query["type"])


@blp.route("/BaseAccount/code/email")
class EmailCodeView(MethodView):
    @blp.public
    @blp.arguments(s.EmailCodeQuery, location="query")
    @blp.ok(refusals=(e.ContactAlreadyBound, e.CodeSentTooOften))
    @blp.alt_response(429, schema=ErrorEnvelope, description="too many codes for this address within an hour")
    def get(self, query):
        """Send a 6-digit code by e-mail, valid 10 minutes, at most one a minute."""
        _send_code(Channel.EMAIL, query["email"], query["type"])


@blp.route("/BaseAccount/newVerify")
class CaptchaView(MethodView):
    @blp.public
    @blp.alt_response(200, success=True, content_type="image/png", schema={"type": "string", "format": "binary"},
                      description="PNG image; its id is in the X-Captcha-Id header and the jc_captcha cookie",
                      headers={"X-Captcha-Id": {"schema": {"type": "string"}}})
    def get(self):
        """An image captcha, valid 5 minutes and checked once (send it as verifyCode at login)."""
        issue = context.container().issue_captcha()
        captcha_id, png = issue()
        response = make_response(png)
        response.headers.update({"Content-Type": "image/png", "X-Captcha-Id": captcha_id,
                                 "Cache-Control": "no-store"})
        response.set_cookie(CAPTCHA_COOKIE, captcha_id, max_age=300, httponly=True, samesite="Strict",
                            path="/api/base/BaseAccount", secure=request.is_secure)
        return response


def _logout() -> None:
    context.container().logout()(context.current_principal())


@blp.route("/BaseAccount/loginOut")
class LoginOutView(MethodView):
    @blp.ok()
    def get(self):
        """Revoke the caller's token at once."""
        _logout()


@blp.route("/auth/logout")
class LogoutView(MethodView):
    @blp.ok()
    def post(self):
        """Revoke the caller's token at once."""
        _logout()


PHOTO_PATH = "/api/base/BaseAccount/headPhoto"


def _photo_url(name: str | None) -> str | None:
    # The file name changes with each upload, so the URL does too and a cached old picture is not shown.
    return f"{PHOTO_PATH}?v={name.removesuffix('.png')}" if name else None


def _account_info(info: AccountInfo) -> dict:
    translator, language = context.container().translator(), context.language.get()
    a, p = info.account, info.profile
    return {
        "permissionRoutes": info.permissions,
        "orgWithMyRole": [{"organizationId": o.organization_id, "organizationName": o.organization_name,
                           "roleId": o.role_id, "roleCode": o.role_code,
                           "roleName": (translator.translate(o.role_name, language) if o.role_code in roles.BY_CODE
                                        else o.role_name), "creator": o.is_creator}
                          for o in info.organizations],
        "baseAccount": {"id": a.id, "userName": a.user_name, "accountPhoto": _photo_url(a.photo_url),
                        "phone": a.phone, "email": a.email, "accountType": int(a.account_type),
                        "realName": a.real_name, "company": a.company, "language": a.language,
                        "timeZone": a.time_zone},
        "userProfile": {"walletStatus": p.wallet_status, "homePage": p.home_page,
                        "elitechIdentity": p.elitech_identity, "elitechIndustry": p.elitech_industry,
                        "enableProtect": p.enable_protect, "enableFda": p.enable_fda},
        "premiumState": {"state": info.premium.state, "expiredCount": info.premium.expired_count},
        "baseSceneList": [{"sceneType": sc.scene_type, "sceneName": translator.translate(sc.name, language)}
                          for sc in info.scenes],
        "elitechVersion": current_app.config["API_VERSION"],
    }


@blp.route("/BaseAccount/accountInfo")
class AccountInfoView(MethodView):
    @blp.arguments(s.AccountInfoQuery, location="query")
    @blp.ok(s.AccountInfoSchema)
    def get(self, query):
        """Who the caller is: permissions, organizations and role, profile, premium state, scenes."""
        account_info = context.container().account_info()
        return _account_info(account_info(context.current_principal()))


@blp.route("/BaseAccount/getScenePermissionList")
class ScenePermissionView(MethodView):
    @blp.arguments(s.SceneQuery, location="query")
    @blp.ok(Values(fields.String(), required=True), name="PermissionNames")
    def get(self, query):
        """The caller's permissions within a scene. Scene 2 without cloudChain.myProject means the
        console falls back to scene 1."""
        return scene_permissions(query["sceneId"], caller_permissions())


@blp.route("/BaseAccount/login/toOldPaltform")
class SwitchPlatformView(MethodView):
    @blp.arguments(s.SwitchPlatformSchema)
    @blp.ok(s.TokenSchema, refusals=(e.WrongPassword,))
    @blp.alt_response(429, schema=ErrorEnvelope, description="too many failures; see Retry-After")
    def post(self, body):
        """Change platform: the caller confirms their credentials and gets a token to open the
        other platform with."""
        switch = context.container().switch_platform()
        return _token(switch(SwitchPlatform(context.caller_id(), body["userName"],
                                            body["accountPassword"], request.remote_addr)))


@blp.route("/BaseUserProfile/update")
class ProfileView(MethodView):
    @blp.arguments(s.ProfileUpdateSchema)
    @blp.ok()
    def post(self, body):
        """Save identity, industry, home page or idle protection of the caller's profile."""
        update = context.container().update_profile()
        update(UpdateProfile(context.caller_id(), body.get("elitechIdentity"),
                             body.get("elitechIndustry"), body.get("homePage"), body.get("enableProtect")))




def _home_tiles(tiles: tuple[str, ...]) -> dict:
    return {"tiles": list(tiles), "available": list(HOME_TILES), "minimum": MIN_TILES}


@blp.route("/BaseUserProfile/homeTiles")
class HomeTilesView(MethodView):
    @blp.requires("home")
    @blp.ok(s.HomeTilesSchema)
    def get(self):
        """The tiles the caller keeps on the home page, in order (the device counts until they
        choose), with every tile there is."""
        return _home_tiles(context.container().home_tiles()(context.caller_id()))

    @blp.requires("home")
    @blp.arguments(s.HomeTilesUpdateSchema)
    @blp.ok(s.HomeTilesSchema)
    def post(self, body):
        """Choose and order the home page's tiles: at least 5 of `available`, each once."""
        save = context.container().save_home_tiles()
        return _home_tiles(save(context.caller_id(), body["tiles"]))


@blp.route("/BaseAccount/modifyBaseInfo")
class BaseInfoView(MethodView):
    @blp.arguments(s.BaseInfoSchema)
    @blp.ok()
    def post(self, body):
        """Change the caller's real name (up to 20) or company (2 to 50)."""
        context.container().change_base_info()(ChangeBaseInfo(
            context.caller_id(), body.get("realName"), body.get("company")))


def _change_credentials(body: dict, channel: Channel) -> None:
    principal = context.current_principal()
    context.container().change_credentials()(ChangeCredentials(
        account_id=principal.account_id, session_id=principal.session_id,
        current_password=body["accountPassword"], channel=channel, new_password=body.get("newPassword"),
        confirm_password=body.get("confirmPassword"), new_contact=body.get(channel.value), code=body.get("code"),
        client_address=request.remote_addr))


@blp.route("/BaseAccount/modifyPhoneAndPassword")
class PhoneAndPasswordView(MethodView):
    @blp.arguments(s.PhoneAndPasswordSchema)
    @blp.ok(refusals=(e.WrongPassword, e.WrongVerificationCode, e.ContactAlreadyBound))
    @blp.alt_response(429, schema=ErrorEnvelope, description="too many wrong passwords; see Retry-After")
    def post(self, body):
        """Change the password and/or the phone (with a code sent to the new number), confirmed by
        the current password. A new password ends the caller's other sessions."""
        _change_credentials(body, Channel.PHONE)


@blp.route("/BaseAccount/modifyEmailAndPassword")
class EmailAndPasswordView(MethodView):
    @blp.arguments(s.EmailAndPasswordSchema)
    @blp.ok(refusals=(e.WrongPassword, e.WrongVerificationCode, e.ContactAlreadyBound))
    @blp.alt_response(429, schema=ErrorEnvelope, description="too many wrong passwords; see Retry-After")
    def post(self, body):
        """Change the password and/or the e-mail (with a code sent to the new address), confirmed by
        the current password. A new password ends the caller's other sessions."""
        _change_credentials(body, Channel.EMAIL)


@blp.route("/BaseAccount/binding")
class BindingView(MethodView):
    @blp.arguments(s.BindingSchema)
    @blp.ok(refusals=(e.ContactAlreadySet, e.WrongVerificationCode, e.ContactAlreadyBound))
    def post(self, body):
        """Bind a phone (or e-mail) to the caller's account that has none yet, with a code of type
        3 sent to it. Replacing an existing one is modifyPhoneAndPassword (asks for the password)."""
        channel, target = _contact(body)
        context.container().bind_contact()(BindContact(context.caller_id(), channel,
                                                      target, body["code"]))


@blp.route("/BaseAccount/modifyPreferences")
class PreferencesView(MethodView):
    @blp.arguments(s.PreferencesSchema)
    @blp.ok()
    def post(self, body):
        """Change the language and/or the IANA time zone of the caller's console and of the messages
        sent to them; an unknown zone is refused (422)."""
        context.container().change_preferences()(ChangePreferences(
            context.caller_id(), body.get("language"), body.get("timeZone")))


@blp.route("/BaseAccount/uploadHeadPhoto")
class PhotoUploadView(MethodView):
    @blp.arguments(s.PhotoUploadSchema, location="files")
    @blp.ok(s.PhotoSchema)
    def post(self, files):
        """Replace the caller's picture. Only a real JPG or PNG (by its content, not its name) of at
        most 1 MB and 4096 pixels a side is taken (else 422, errors.file says why; 413 over the
        request limit); it is kept re-encoded, so nothing else of the file is ever served."""
        data = files["file"].stream.read(MAX_PHOTO_BYTES + 1)
        name = context.container().change_photo()(context.caller_id(), data)
        return {"accountPhoto": _photo_url(name)}


@blp.route("/BaseAccount/headPhoto")
class PhotoView(MethodView):
    @blp.arguments(s.PhotoQuery, location="query")
    @blp.alt_response(200, success=True, content_type="image/png", schema={"type": "string", "format": "binary"},
                      description="the caller's picture (PNG)")
    @blp.alt_response(404, schema=ErrorEnvelope, description="the caller has no picture")
    def get(self, query):
        """The caller's own picture; nobody else's is served."""
        data = context.container().account_photo()(context.caller_id())
        return Response(data, mimetype="image/png", headers={"Cache-Control": "private, max-age=86400",
                                                             "X-Content-Type-Options": "nosniff"})
