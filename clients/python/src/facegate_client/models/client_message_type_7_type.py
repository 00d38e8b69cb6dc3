from enum import StrEnum

class ClientMessageType7Type(StrEnum):
    ERROR = "error"

    def __str__(self) -> str:
        return str(self.value)
