from enum import StrEnum

class ClientMessageType0Type(StrEnum):
    READY = "ready"

    def __str__(self) -> str:
        return str(self.value)
