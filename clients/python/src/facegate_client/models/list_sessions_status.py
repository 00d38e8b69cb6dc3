from enum import StrEnum

class ListSessionsStatus(StrEnum):
    COMPLETED = "completed"
    CREATED = "created"
    IN_PROGRESS = "in_progress"

    def __str__(self) -> str:
        return str(self.value)
