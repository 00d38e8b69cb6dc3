from enum import StrEnum

class ListSessionsVerdict(StrEnum):
    FAIL = "fail"
    PASS = "pass"
    RETRY = "retry"

    def __str__(self) -> str:
        return str(self.value)
