require("fs").mkdirSync("out", { recursive: true });
require("fs").writeFileSync("out/version.txt", "1.0.0\n");
