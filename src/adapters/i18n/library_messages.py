"""Messages that marshmallow and webargs produce in English, listed so Babel extracts them into
the catalogues. Templated ones are matched after formatting (see Translator.translate_text)."""

from core.shared.messages import N_

MESSAGES = (
    N_("Missing data for required field."),
    N_("Field may not be null."),
    N_("Invalid value."),
    N_("Unknown field."),
    N_("Invalid input type."),
    N_("Not a valid string."),
    N_("Not a valid utf-8 string."),
    N_("Not a valid integer."),
    N_("Not a valid number."),
    N_("Not a valid boolean."),
    N_("Not a valid list."),
    N_("Not a valid mapping type."),
    N_("Not a valid datetime."),
    N_("Not a valid date."),
    N_("Not a valid email address."),
    N_("Not a valid URL."),
    N_("Number too large."),
    N_("Special numeric values (nan or infinity) are not permitted."),
    N_("Length must be between {min} and {max}."),
    N_("Shorter than minimum length {min}."),
    N_("Longer than maximum length {max}."),
    N_("Length must be {equal}."),
    N_("Must be one of: {choices}."),
    N_("String does not match expected pattern."),
    N_("Must be greater than or equal to {min}."),
    N_("Must be less than or equal to {max}."),
    N_("Must be greater than or equal to {min} and less than or equal to {max}."),
    N_("Must be greater than {min}."),
    N_("Must be less than {max}."),
)
