from enum import StrEnum

class ClientMessageType4Type(StrEnum):
    CHALLENGE = "challenge"

    def __str__(self) -> str:
        return str(self.value)
