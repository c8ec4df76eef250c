import os
import sys

if not os.environ.get("OPENAI_API_KEY"):
    sys.exit("set OPENAI_API_KEY")
print("ready")
