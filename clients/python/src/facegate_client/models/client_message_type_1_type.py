from enum import StrEnum

class ClientMessageType1Type(StrEnum):
    ILLUMINATION = "illumination"

    def __str__(self) -> str:
        return str(self.value)
