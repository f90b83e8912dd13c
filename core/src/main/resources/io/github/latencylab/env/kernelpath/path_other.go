//go:build !linux

package main

import (
	"errors"
	"runtime"
)

func start(config) (running, error) {
	return nil, errors.New("network namespaces and TUN devices are Linux's: this is " + runtime.GOOS)
}
