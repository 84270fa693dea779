#!/usr/bin/env python3
import hashlib
import sys
from pathlib import Path

import boto3


def md5(p):
    return hashlib.md5(p.read_bytes()).hexdigest()


def main(src, dest, delete=False):
    bucket, _, prefix = dest[5:].partition("/")
    s3 = boto3.client("s3")
    remote = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        for o in page.get("Contents", []):
            remote[o["Key"]] = o["ETag"].strip('"')
    root = Path(src)
    seen = set()
    for p in root.rglob("*"):
        if p.is_file():
            key = f"{prefix.rstrip('/')}/{p.relative_to(root)}".lstrip("/")
            seen.add(key)
            if remote.get(key) != md5(p):
                s3.upload_file(str(p), bucket, key)
                print("upload", key)
    if delete:
        for key in set(remote) - seen:
            s3.delete_object(Bucket=bucket, Key=key)
            print("delete", key)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], "--delete" in sys.argv)
