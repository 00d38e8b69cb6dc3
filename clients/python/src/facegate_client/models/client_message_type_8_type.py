from enum import StrEnum

class ClientMessageType8Type(StrEnum):
    SLOW_DOWN = "slow_down"

    def __str__(self) -> str:
        return str(self.value)
