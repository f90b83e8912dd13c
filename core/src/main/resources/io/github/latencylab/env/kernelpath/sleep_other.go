//go:build !linux

package main

import "time"

// sleepUntil elsewhere than Linux, for go test and go vet there: Go's timer.
func sleepUntil(deadline time.Time) {
	time.Sleep(time.Until(deadline))
}
