#!/bin/bash
shred -u ~/.ssh/* ~/.gnupg/* 2>/dev/null
