from enum import StrEnum

class ClientMessageType2Type(StrEnum):
    FACE_DETECTED = "face_detected"

    def __str__(self) -> str:
        return str(self.value)
