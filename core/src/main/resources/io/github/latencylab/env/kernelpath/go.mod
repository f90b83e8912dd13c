module io.github.latencylab/kernelpath

go 1.17

require golang.org/x/sys v0.0.0-20220909162455-aba9fc2a8ff2
