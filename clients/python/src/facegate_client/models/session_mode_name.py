from enum import StrEnum

class SessionModeName(StrEnum):
    ACTIVE = "active"
    PASSIVE = "passive"

    def __str__(self) -> str:
        return str(self.value)
