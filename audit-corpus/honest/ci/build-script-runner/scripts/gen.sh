#!/bin/bash
protoc --python_out=gen proto/*.proto
