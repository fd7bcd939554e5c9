"""SPI's *Commando* as the "Royal Irvanian Commando" fan charts (seed 003): the tactical game."""
