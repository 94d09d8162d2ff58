import sys

if sys.argv[1:2] == ["compare"]:
    from bench.compare import main

    sys.exit(main(sys.argv[2:]))

from bench.run import main

sys.exit(main())
