#!/bin/sh
# Remakes the committed fatbinaries of the CUDA runtime's tests from the
# committed PTX with CUDA 13's fatbinary and ptxas (not needed to run the
# tests). Run in this folder: sh make-fixtures.sh [CUDA_HOME]
#   rt_kernels.plain.fatbin  the PTX stored as text (--compress=false)
#   rt_kernels.zstd.fatbin   zstd-compressed (nvcc 13's default)
#   rt_kernels.speed.fatbin  --compress-mode=speed (a compressor flipsim refuses)
#   rt_kernels.multi.fatbin  PTX for sm_52, sm_75 and sm_86 (.target lines
#                            changed), zstd: the reader picks sm_75's
#   rt_kernels.sass.fatbin   machine code only (a cubin of sm_75): no PTX
#   tex_kernels.zstd.fatbin  tex_kernels.ptx (nvcc -arch=sm_75 -ptx tex_kernels.cu), zstd
set -e
cuda=${1:-/usr/local/cuda}
fb="$cuda/bin/fatbinary -64"
ptx=rt_kernels.ptx
$fb --create=rt_kernels.plain.fatbin --compress=false --image3=kind=ptx,sm=75,file=$ptx
$fb --create=rt_kernels.zstd.fatbin --image3=kind=ptx,sm=75,file=$ptx
$fb --create=rt_kernels.speed.fatbin --compress-mode=speed --image3=kind=ptx,sm=75,file=$ptx
tmp=$(mktemp -d)
sed 's/^\.target sm_75$/.target sm_52/' $ptx > "$tmp/52.ptx"
sed 's/^\.target sm_75$/.target sm_86/' $ptx > "$tmp/86.ptx"
$fb --create=rt_kernels.multi.fatbin --image3=kind=ptx,sm=86,file="$tmp/86.ptx" \
	--image3=kind=ptx,sm=75,file=$ptx --image3=kind=ptx,sm=52,file="$tmp/52.ptx"
"$cuda/bin/ptxas" -arch=sm_75 $ptx -o "$tmp/k.cubin"
$fb --create=rt_kernels.sass.fatbin --image3=kind=elf,sm=75,file="$tmp/k.cubin"
rm -rf "$tmp"
$fb --create=tex_kernels.zstd.fatbin --image3=kind=ptx,sm=75,file=tex_kernels.ptx
