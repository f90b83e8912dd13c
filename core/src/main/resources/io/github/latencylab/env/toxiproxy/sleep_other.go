//go:build !linux

package main

import "time"

// sleepUntil elsewhere than Linux: Go's timer, as precise as the platform makes it. The Lab's
// containers run the Linux build.
func sleepUntil(deadline time.Time) {
	time.Sleep(time.Until(deadline))
}
