from __future__ import annotations

from flask_smorest.fields import Upload
from marshmallow import ValidationError, fields, validate, validates_schema

from adapters.images.account_photos import MAX_PHOTO_BYTES, MAX_SIDE
from core.accounts.home_tiles import HOME_TILES, MIN_TILES
from core.accounts.rules import LOGIN_NAME_MAX, LOGIN_PASSWORD_MAX, password_problem, user_name_problem
from core.shared.edition import LANGUAGES
from core.shared.messages import N_
from entrypoints.api.framework import LocalDateTime, Schema, Values
from entrypoints.api.validators import email_rule, login_name_rule, phone_rule, rule

Length, OneOf, Regexp, Range = validate.Length, validate.OneOf, validate.Regexp, validate.Range
JS_SAFE_INTEGER_MAX = 2**53 - 1
CODE = [Length(4, 8), Regexp(r"^\d{4,8}$", error=N_("Enter the digits of the code you received"))]


LOGIN_NAME = fields.String(required=True, validate=[Length(1, LOGIN_NAME_MAX), login_name_rule],
                           metadata={"description": "user name, phone number or e-mail address"})
CAPTCHA_ID = fields.String(validate=Length(1, 64),
                           metadata={"description": "X-Captcha-Id of the image; the jc_captcha cookie also works"})


class LoginSchema(Schema):
    userName = LOGIN_NAME
    accountPassword = fields.String(validate=Length(1, LOGIN_PASSWORD_MAX),
                                    metadata={"description": "required unless loginCode is sent"})
    loginType = fields.Integer(load_default=1, validate=OneOf([1, 4]),
                               metadata={"description": "1 password form, 4 automatic login from URL credentials"})
    verifyCode = fields.String(validate=Length(1, 10),
                               metadata={"description": "answer to the image captcha; required after failures "
                                                        "(code 1014) and for a protected account (1015)"})
    captchaId = CAPTCHA_ID
    loginCode = fields.String(validate=CODE, metadata={"description": "a one-time code sent by code/login; it "
                                                                      "stands for the password and the captcha"})

    @validates_schema(skip_on_field_errors=False)
    def _password_or_code(self, data, **kwargs):
        if "accountPassword" not in data and "loginCode" not in data:
            raise ValidationError(N_("Missing data for required field."), "accountPassword")


class LoginCodeSchema(Schema):
    userName = LOGIN_NAME
    verifyCode = fields.String(required=True, validate=Length(1, 10),
                               metadata={"description": "answer to the image captcha"})
    captchaId = CAPTCHA_ID


class TokenSchema(Schema):
    token = fields.String(required=True)
    expiresAt = LocalDateTime(required=True)


class _OneContact(Schema):
    phone = fields.String(validate=[Length(1, 20), phone_rule])
    email = fields.String(validate=[Length(1, 200), email_rule])

    @validates_schema
    def _exactly_one(self, data, **kwargs):
        if "phone" not in data and "email" not in data:
            raise ValidationError(N_("Enter a phone number or an e-mail address"), "phone")
        if "phone" in data and "email" in data:
            raise ValidationError(N_("Enter a phone number or an e-mail address, not both"), "email")


class RegisterSchema(_OneContact):
    userName = fields.String(required=True, validate=[Length(1, 50), rule(user_name_problem)])
    accountPassword = fields.String(required=True, validate=[Length(1, 20), rule(password_problem)])
    code = fields.String(required=True, validate=CODE)


class ForgotSchema(_OneContact):
    code = fields.String(required=True, validate=CODE)
    accountPassword = fields.String(required=True, validate=[Length(1, 20), rule(password_problem)])


CODE_TYPE = fields.Integer(required=True, validate=OneOf([1, 2, 3]),
                           metadata={"description": "1 register, 2 reset password, 3 bind"})


class PhoneCodeQuery(Schema):
    phone = fields.String(required=True, validate=[Length(1, 20), phone_rule])
    type = CODE_TYPE


class EmailCodeQuery(Schema):
    email = fields.String(required=True, validate=[Length(1, 200), email_rule])
    type = CODE_TYPE


class AccountInfoQuery(Schema):
    timestamp = fields.Integer(validate=Range(min=0, max=JS_SAFE_INTEGER_MAX),
                               metadata={"description": "cache buster (the client's Date.now()), ignored"})


class SceneQuery(Schema):
    sceneId = fields.Integer(required=True, validate=OneOf([1, 2]))


class BaseAccountSchema(Schema):
    id = fields.Integer(required=True)
    userName = fields.String(required=True)
    accountPhoto = fields.String(required=True, allow_none=True)
    phone = fields.String(required=True, allow_none=True)
    email = fields.String(required=True, allow_none=True)
    accountType = fields.Integer(required=True,
                                 metadata={"description": "1 personal, 2 enterprise, 3 engineer, 4 dealer, 9 system"})
    realName = fields.String(required=True, allow_none=True)
    company = fields.String(required=True, allow_none=True)
    language = fields.String(required=True, allow_none=True,
                             metadata={"description": "the language the console and messages to the owner use"})
    timeZone = fields.String(required=True, allow_none=True,
                             metadata={"description": "IANA time zone the owner chose; null: the edition's"})


class UserProfileSchema(Schema):
    walletStatus = fields.Integer(required=True)
    homePage = fields.String(required=True, allow_none=True)
    elitechIdentity = fields.String(required=True, allow_none=True)
    elitechIndustry = fields.String(required=True, allow_none=True)
    enableProtect = fields.Integer(required=True)
    enableFda = fields.Integer(required=True)


class OrgWithMyRoleSchema(Schema):
    organizationId = fields.Integer(required=True)
    organizationName = fields.String(required=True)
    roleId = fields.Integer(required=True)
    roleCode = fields.String(required=True)
    roleName = fields.String(required=True)
    creator = fields.Boolean(required=True)


class PremiumStateSchema(Schema):
    state = fields.Integer(required=True, metadata={"description": "1 premium member, 0 standard"})
    expiredCount = fields.Integer(required=True, metadata={"description": "whole days of premium left"})


class SceneSchema(Schema):
    sceneType = fields.Integer(required=True)
    sceneName = fields.String(required=True)


class AccountInfoSchema(Schema):
    permissionRoutes = Values(fields.String(), required=True)
    orgWithMyRole = fields.List(fields.Nested(OrgWithMyRoleSchema), required=True)
    baseAccount = fields.Nested(BaseAccountSchema, required=True)
    userProfile = fields.Nested(UserProfileSchema, required=True)
    premiumState = fields.Nested(PremiumStateSchema, required=True)
    baseSceneList = fields.List(fields.Nested(SceneSchema), required=True)
    elitechVersion = fields.String(required=True)



class ProfileUpdateSchema(Schema):
    elitechIdentity = fields.String(validate=Length(1, 32))
    elitechIndustry = fields.String(validate=Length(1, 32))
    homePage = fields.String(validate=[Length(1, 200), Regexp(r"^/[A-Za-z0-9_\-./]*$",
                                                              error=N_("Enter a console path such as /home"))])
    enableProtect = fields.Integer(validate=OneOf([0, 1]))

    @validates_schema
    def _something(self, data, **kwargs):
        if not data:
            raise ValidationError(N_("Nothing to save"))


class BaseInfoSchema(Schema):
    realName = fields.String(validate=Length(1, 20))
    company = fields.String(validate=Length(1, 50))

    @validates_schema
    def _something(self, data, **kwargs):
        if not data:
            raise ValidationError(N_("Nothing to save"))


class _CredentialsChange(Schema):
    accountPassword = fields.String(required=True, validate=Length(1, LOGIN_PASSWORD_MAX),
                                    metadata={"description": "the current password"})
    newPassword = fields.String(validate=Length(1, 20))
    confirmPassword = fields.String(validate=Length(1, 20))
    code = fields.String(validate=CODE, metadata={"description": "code of type 3 sent to the new phone or e-mail"})
    CONTACT = "phone"

    @validates_schema
    def _complete(self, data, **kwargs):
        contact = self.CONTACT
        if "newPassword" not in data and contact not in data:
            raise ValidationError(N_("Nothing to save"))
        if "newPassword" in data and "confirmPassword" not in data:
            raise ValidationError(N_("Missing data for required field."), "confirmPassword")
        if contact in data and "code" not in data:
            raise ValidationError(N_("Missing data for required field."), "code")


class PhoneAndPasswordSchema(_CredentialsChange):
    phone = fields.String(validate=Length(1, 20), metadata={"description": "the new phone number"})


class EmailAndPasswordSchema(_CredentialsChange):
    email = fields.String(validate=Length(1, 200), metadata={"description": "the new e-mail address"})
    CONTACT = "email"


class BindingSchema(_OneContact):
    code = fields.String(required=True, validate=CODE, metadata={"description": "code of type 3 sent to it"})


class SwitchPlatformSchema(Schema):
    userName = fields.String(required=True, validate=[Length(1, LOGIN_NAME_MAX), login_name_rule])
    accountPassword = fields.String(required=True, validate=Length(1, LOGIN_PASSWORD_MAX))
    phone = fields.String(validate=Length(1, 20))
    email = fields.String(validate=Length(1, 200))


class PreferencesSchema(Schema):
    language = fields.String(validate=OneOf(LANGUAGES))
    timeZone = fields.String(validate=Length(1, 64), metadata={"description": "an IANA name, e.g. Europe/Berlin"})

    @validates_schema
    def _something(self, data, **kwargs):
        if not data:
            raise ValidationError(N_("Nothing to save"))


class PhotoUploadSchema(Schema):
    # maxLength of a binary string counts its bytes: the published bound of what a client may send.
    file = Upload(required=True, metadata={
        "maxLength": MAX_PHOTO_BYTES,
        "description": f"a JPG or PNG picture of at most {MAX_PHOTO_BYTES >> 20} MB and {MAX_SIDE} pixels a "
                       "side; it is kept re-encoded as a PNG of at most 512 pixels a side"})


class PhotoSchema(Schema):
    accountPhoto = fields.String(required=True, metadata={"description": "where the caller's picture is served"})


class PhotoQuery(Schema):
    v = fields.String(validate=Length(1, 40), metadata={"description": "the version accountPhoto names, ignored"})
class HomeTilesUpdateSchema(Schema):
    tiles = fields.List(fields.String(validate=OneOf(HOME_TILES)), required=True,
                        validate=Length(MIN_TILES, len(HOME_TILES)),
                        metadata={"description": f"the tiles to show, in order: at least {MIN_TILES}, each once"})


class HomeTilesSchema(Schema):
    tiles = fields.List(fields.String(), required=True, metadata={"description": "the user's tiles, in order"})
    available = fields.List(fields.String(), required=True,
                            metadata={"description": "every tile there is: " + ", ".join(HOME_TILES)})
    minimum = fields.Integer(required=True, metadata={"description": "tiles a user keeps at least"})
