import unittest
import sys, os
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from slug import slug

class SlugTest(unittest.TestCase):
    def test_lower(self):
        self.assertEqual(slug("Hello World"), "hello-world")

if __name__ == "__main__":
    unittest.main()
