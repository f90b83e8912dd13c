// Command toxiproxy-server is Toxiproxy's server, unchanged, with two more toxics registered:
// latency_us (latency_us.go) and tcp_window (tcp_window.go). This is the way Toxiproxy's CREATING_TOXICS.md describes to add
// a toxic without forking the project: a main that registers it and runs the server. Same
// flags and HTTP API as upstream's toxiproxy-server (-host, -port, -config, -seed, -version).
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/Shopify/toxiproxy/v2"
	"github.com/Shopify/toxiproxy/v2/toxics"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

const upstreamModule = "github.com/Shopify/toxiproxy/v2"

func init() {
	toxics.Register("latency_us", new(MicrosecondLatencyToxic))
	toxics.Register("tcp_window", new(TCPWindowToxic))
}

func main() {
	host := flag.String("host", "localhost", "Host for toxiproxy's API to listen on")
	port := flag.String("port", "8474", "Port for toxiproxy's API to listen on")
	config := flag.String("config", "", "JSON file containing proxies to create on startup")
	seed := flag.Int64("seed", time.Now().UTC().UnixNano(), "Seed for randomizing toxics with")
	printVersion := flag.Bool("version", false, "print the version")
	flag.Parse()

	// GET /version says what runs: upstream's version plus these toxics
	toxiproxy.Version = upstreamVersion() + "+latency_us+tcp_window"
	if *printVersion {
		fmt.Printf("toxiproxy-server version %s\n", toxiproxy.Version)
		return
	}

	terminate := make(chan os.Signal, 1)
	signal.Notify(terminate, syscall.SIGTERM)
	go func() {
		<-terminate
		os.Exit(0)
	}()

	logger := zerolog.New(os.Stdout).With().Timestamp().Logger()
	if level, err := zerolog.ParseLevel(os.Getenv("LOG_LEVEL")); err == nil && level != zerolog.NoLevel {
		logger = logger.Level(level)
	}
	rand.Seed(*seed) // upstream's toxics (jitter, toxicity) draw from the global source

	server := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(prometheus.NewRegistry()), logger)
	if *config != "" {
		server.PopulateConfig(*config)
	}
	server.Listen(*host, *port)
}

// upstreamVersion is the Toxiproxy module this binary was built with, e.g. "2.5.0".
func upstreamVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == upstreamModule {
				return dep.Version[1:]
			}
		}
	}
	return "unknown"
}
