from enum import StrEnum


class FieldErrorCode(StrEnum):
    BAD_TEXT = "bad_text"
    DUPLICATE = "duplicate"
    EMPTY = "empty"
    INVALID = "invalid"
    INVALID_CHOICE = "invalid_choice"
    MAX_LENGTH = "max_length"
    MIN_LENGTH = "min_length"
    NOT_A_LIST = "not_a_list"
    OUT_OF_RANGE = "out_of_range"
    PARSE_ERROR = "parse_error"
    REFUSED = "refused"
    REQUIRED = "required"
    TOO_DEEP = "too_deep"
    UNKNOWN_FIELD = "unknown_field"

    def __str__(self) -> str:
        return str(self.value)
