from enum import StrEnum

class ClientMessageType6Type(StrEnum):
    VERDICT = "verdict"

    def __str__(self) -> str:
        return str(self.value)
