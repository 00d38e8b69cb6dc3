""" Contains all the data models used in inputs/outputs """

from .audit_frames_view import AuditFramesView
from .box_dto import BoxDto
from .client_message_type_0_data import ClientMessageType0Data
from .client_message_type_0_type import ClientMessageType0Type
from .client_message_type_1_data import ClientMessageType1Data
from .client_message_type_1_type import ClientMessageType1Type
from .client_message_type_2_data import ClientMessageType2Data
from .client_message_type_2_type import ClientMessageType2Type
from .client_message_type_3_data import ClientMessageType3Data
from .client_message_type_3_type import ClientMessageType3Type
from .client_message_type_4_data import ClientMessageType4Data
from .client_message_type_4_type import ClientMessageType4Type
from .client_message_type_5_data import ClientMessageType5Data
from .client_message_type_5_type import ClientMessageType5Type
from .client_message_type_6_data import ClientMessageType6Data
from .client_message_type_6_type import ClientMessageType6Type
from .client_message_type_7_data import ClientMessageType7Data
from .client_message_type_7_type import ClientMessageType7Type
from .client_message_type_8_data import ClientMessageType8Data
from .client_message_type_8_type import ClientMessageType8Type
from .collection_dto import CollectionDto
from .collection_list import CollectionList
from .compare_form import CompareForm
from .compare_response import CompareResponse
from .compare_v1_form import CompareV1Form
from .compare_v1_response import CompareV1Response
from .compare_with_session_form import CompareWithSessionForm
from .compare_with_session_view import CompareWithSessionView
from .create_collection import CreateCollection
from .delivery_view import DeliveryView
from .delivery_view_attempt_log_item import DeliveryViewAttemptLogItem
from .detect_response import DetectResponse
from .direct_session_body import DirectSessionBody
from .direct_session_created import DirectSessionCreated
from .error_body import ErrorBody
from .error_detail import ErrorDetail
from .error_detail_code import ErrorDetailCode
from .face_dto import FaceDto
from .face_list import FaceList
from .face_model import FaceModel
from .image_form import ImageForm
from .image_size import ImageSize
from .index_face_form import IndexFaceForm
from .indexed_face_dto import IndexedFaceDto
from .landmarks_dto import LandmarksDto
from .list_sessions_status import ListSessionsStatus
from .list_sessions_verdict import ListSessionsVerdict
from .managed_session_body import ManagedSessionBody
from .managed_session_created import ManagedSessionCreated
from .match_view import MatchView
from .point_dto import PointDto
from .pose_dto import PoseDto
from .quality_dto import QualityDto
from .quality_filter_name import QualityFilterName
from .requirement_view import RequirementView
from .result_detail import ResultDetail
from .result_detail_layers_type_0 import ResultDetailLayersType0
from .search_hit_dto import SearchHitDto
from .search_response import SearchResponse
from .session_list_view import SessionListView
from .session_mode_name import SessionModeName
from .session_result_view import SessionResultView
from .session_result_view_layers_type_0 import SessionResultViewLayersType0

__all__ = (
    "AuditFramesView",
    "BoxDto",
    "ClientMessageType0Data",
    "ClientMessageType0Type",
    "ClientMessageType1Data",
    "ClientMessageType1Type",
    "ClientMessageType2Data",
    "ClientMessageType2Type",
    "ClientMessageType3Data",
    "ClientMessageType3Type",
    "ClientMessageType4Data",
    "ClientMessageType4Type",
    "ClientMessageType5Data",
    "ClientMessageType5Type",
    "ClientMessageType6Data",
    "ClientMessageType6Type",
    "ClientMessageType7Data",
    "ClientMessageType7Type",
    "ClientMessageType8Data",
    "ClientMessageType8Type",
    "CollectionDto",
    "CollectionList",
    "CompareForm",
    "CompareResponse",
    "CompareV1Form",
    "CompareV1Response",
    "CompareWithSessionForm",
    "CompareWithSessionView",
    "CreateCollection",
    "DeliveryView",
    "DeliveryViewAttemptLogItem",
    "DetectResponse",
    "DirectSessionBody",
    "DirectSessionCreated",
    "ErrorBody",
    "ErrorDetail",
    "ErrorDetailCode",
    "FaceDto",
    "FaceList",
    "FaceModel",
    "ImageForm",
    "ImageSize",
    "IndexedFaceDto",
    "IndexFaceForm",
    "LandmarksDto",
    "ListSessionsStatus",
    "ListSessionsVerdict",
    "ManagedSessionBody",
    "ManagedSessionCreated",
    "MatchView",
    "PointDto",
    "PoseDto",
    "QualityDto",
    "QualityFilterName",
    "RequirementView",
    "ResultDetail",
    "ResultDetailLayersType0",
    "SearchHitDto",
    "SearchResponse",
    "SessionListView",
    "SessionModeName",
    "SessionResultView",
    "SessionResultViewLayersType0",
)
