from ddbd._cli import main

main()
