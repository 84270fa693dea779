#!/bin/bash
python3 -m compileall -q src
