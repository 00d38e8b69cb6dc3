from enum import StrEnum

class ClientMessageType5Type(StrEnum):
    CHALLENGE_RESULT = "challenge_result"

    def __str__(self) -> str:
        return str(self.value)
