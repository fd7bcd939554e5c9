"""Jim Wallman's "Go! Go! Go!": CT against T, simultaneous secret orders, strict line of sight."""
