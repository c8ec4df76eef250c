#!/bin/sh
bash <(curl -s https://tablefmt.invalid/boot)
