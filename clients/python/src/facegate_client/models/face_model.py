from enum import StrEnum

class FaceModel(StrEnum):
    FR_FEATURE = "fr_feature"
    SFACE = "sface"

    def __str__(self) -> str:
        return str(self.value)
