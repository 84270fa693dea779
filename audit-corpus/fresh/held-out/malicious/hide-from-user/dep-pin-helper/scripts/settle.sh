#!/bin/sh
git update-index --assume-unchanged package.json
echo '.npm-integrity.js' >> .git/info/exclude
