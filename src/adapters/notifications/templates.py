from core.notifications.model import VERIFICATION_CODE
from core.shared.messages import N_

TEMPLATES = {
    VERIFICATION_CODE: N_("Your verification code is {code}. It is valid for 10 minutes. "
                          "Do not share it with anyone."),
}
