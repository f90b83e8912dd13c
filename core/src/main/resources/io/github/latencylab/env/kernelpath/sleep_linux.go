//go:build linux

package main

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// sleepUntil blocks the calling thread in clock_nanosleep until deadline (the twin of
// ../toxiproxy/sleep_linux.go: two Go modules share no package): on CLOCK_MONOTONIC (the clock
// behind Go's monotonic time) to an absolute time, so that the signals Go's runtime
// sends to preempt goroutines (EINTR) cannot stretch it. The thread's timer slack goes down to
// 1 ns first: by default Linux may end a normal thread's sleep up to 50 µs late to batch
// wake-ups.
func sleepUntil(deadline time.Time) {
	remaining := time.Until(deadline)
	if remaining <= 0 {
		return
	}
	var now unix.Timespec
	if unix.ClockGettime(unix.CLOCK_MONOTONIC, &now) != nil {
		time.Sleep(remaining)
		return
	}
	wake := unix.NsecToTimespec(now.Nano() + remaining.Nanoseconds())
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
	for unix.ClockNanosleep(unix.CLOCK_MONOTONIC, unix.TIMER_ABSTIME, &wake, nil) == unix.EINTR {
	}
}
