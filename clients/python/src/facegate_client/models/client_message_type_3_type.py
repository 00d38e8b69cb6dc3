from enum import StrEnum

class ClientMessageType3Type(StrEnum):
    GUIDANCE = "guidance"

    def __str__(self) -> str:
        return str(self.value)
