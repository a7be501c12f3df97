"""The ``net`` play policy's weights, one row per rules label (``net.ROW_LABELS``), one column per
weight (``net.N_WEIGHTS``: each feature of ``net.FEATURES`` in each setting of ``net.setting``).
Written by ``belote learn`` (``analyzer.runs.learn``); numba reads them
as constants of the compiled policy. ``PROVENANCE``: how each row was trained and validated.

A row of zeros but the first (the heuristic's card) is the heuristic itself: the rows not trained yet.
"""

import numpy as np

from analyzer.players.net import N_WEIGHTS, ROW_LABELS

KERNEL_DATA = True  # numba freezes WEIGHTS into the compiled policy: this module is part of the kernel cache's digest

WEIGHTS = np.array([
    [  # classic
        10.0,  # defence, early: heuristic's card
        -1.83750250661987,  # defence, early: trump
        1.3457825794000708,  # defence, early: pts
        8.135538349350337,  # defence, early: rank in its suit
        -4.644833289351706,  # defence, early: master
        0.0,  # defence, early: lead
        4.715946862329208,  # defence, early: lead x trump
        6.923670840044642,  # defence, early: lead x master
        -7.27144826602161,  # defence, early: lead x pts
        -1.1389170512694067,  # defence, early: wins the trick so far
        14.613867456342303,  # defence, early: wins x last to play
        31.443457576230717,  # defence, early: wins x trick pts
        -14.915523919354012,  # defence, early: partner winning x pts
        -6.5534493689486455,  # defence, early: partner winning x trump
        -16.904245424201466,  # defence, early: loses x pts
        -6.553449368948648,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        -2.7633591790307976,  # defence, early: unseen trumps x lead x trump
        -10.180378260096617,  # defence, early: length of its suit
        -3.5897197643572074,  # defence, early: lowest of its suit
        -0.19087855373086712,  # defence, early: highest of its suit
        -7.879601538334687,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        -7.41595157506664,  # defence, early: overtrump
        10.0,  # defence, late: heuristic's card
        2.582129580187168,  # defence, late: trump
        4.706435809883756,  # defence, late: pts
        8.842428433061578,  # defence, late: rank in its suit
        -2.8380558645659386,  # defence, late: master
        0.0,  # defence, late: lead
        5.163197885911765,  # defence, late: lead x trump
        4.539174111378835,  # defence, late: lead x master
        2.909090444001107,  # defence, late: lead x pts
        1.0929075837198718,  # defence, late: wins the trick so far
        2.463199859502937,  # defence, late: wins x last to play
        17.141118101990017,  # defence, late: wins x trick pts
        -8.683335004057474,  # defence, late: partner winning x pts
        -2.5810683057288863,  # defence, late: partner winning x trump
        7.53333009467608,  # defence, late: loses x pts
        -2.581068305728949,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        -2.1652564841256767,  # defence, late: unseen trumps x lead x trump
        -25.223638440248177,  # defence, late: length of its suit
        -6.033567855158246,  # defence, late: lowest of its suit
        -1.670869810553681,  # defence, late: highest of its suit
        -40.67304734404899,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        -6.857892306608481,  # defence, late: overtrump
        10.0,  # taker, early: heuristic's card
        -4.952642720658933,  # taker, early: trump
        -7.162959439207142,  # taker, early: pts
        -1.291230862424973,  # taker, early: rank in its suit
        -4.293913850838375,  # taker, early: master
        0.0,  # taker, early: lead
        0.086377205736715,  # taker, early: lead x trump
        17.783543885103732,  # taker, early: lead x master
        -2.741510975361155,  # taker, early: lead x pts
        15.929988183624316,  # taker, early: wins the trick so far
        1.0246088999548013,  # taker, early: wins x last to play
        -29.588375837006634,  # taker, early: wins x trick pts
        -8.472454506275426,  # taker, early: partner winning x pts
        -5.039019926394359,  # taker, early: partner winning x trump
        -13.643570456780814,  # taker, early: loses x pts
        -5.0390199263943565,  # taker, early: ruff
        0.08637720574632399,  # taker, early: taker side x lead x trump
        11.002383616313317,  # taker, early: unseen trumps x lead x trump
        -6.105410115472101,  # taker, early: length of its suit
        -2.083352886943122,  # taker, early: lowest of its suit
        0.8448887316024184,  # taker, early: highest of its suit
        3.9131128908762354,  # taker, early: tricks left x pts
        -8.421549394065385,  # taker, early: taker side x heuristic's card
        -3.0111396745872345,  # taker, early: overtrump
        10.0,  # taker, late: heuristic's card
        -3.335921480916087,  # taker, late: trump
        0.7744258403822474,  # taker, late: pts
        -0.017885660351156095,  # taker, late: rank in its suit
        -3.3503965960875295,  # taker, late: master
        0.0,  # taker, late: lead
        -1.3103829356637775,  # taker, late: lead x trump
        10.281558925816553,  # taker, late: lead x master
        -2.7852863758971305,  # taker, late: lead x pts
        11.314117168888105,  # taker, late: wins the trick so far
        -4.917178401121405,  # taker, late: wins x last to play
        -18.066880233232254,  # taker, late: wins x trick pts
        -0.7496350600209496,  # taker, late: partner winning x pts
        -2.0255385452358516,  # taker, late: partner winning x trump
        -10.35555028097822,  # taker, late: loses x pts
        -2.0255385452357397,  # taker, late: ruff
        -1.3103829356643752,  # taker, late: taker side x lead x trump
        12.068154350356336,  # taker, late: unseen trumps x lead x trump
        -3.8741082233199795,  # taker, late: length of its suit
        -1.43712423896612,  # taker, late: lowest of its suit
        -0.4405141367609275,  # taker, late: highest of its suit
        -1.7861450753633683,  # taker, late: tricks left x pts
        -9.246173658961663,  # taker, late: taker side x heuristic's card
        -0.918739437487763,  # taker, late: overtrump
    ],
    [  # piekjas2
        1.0,  # defence, early: heuristic's card
        0.0,  # defence, early: trump
        0.0,  # defence, early: pts
        0.0,  # defence, early: rank in its suit
        0.0,  # defence, early: master
        0.0,  # defence, early: lead
        0.0,  # defence, early: lead x trump
        0.0,  # defence, early: lead x master
        0.0,  # defence, early: lead x pts
        0.0,  # defence, early: wins the trick so far
        0.0,  # defence, early: wins x last to play
        0.0,  # defence, early: wins x trick pts
        0.0,  # defence, early: partner winning x pts
        0.0,  # defence, early: partner winning x trump
        0.0,  # defence, early: loses x pts
        0.0,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        0.0,  # defence, early: unseen trumps x lead x trump
        0.0,  # defence, early: length of its suit
        0.0,  # defence, early: lowest of its suit
        0.0,  # defence, early: highest of its suit
        0.0,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        0.0,  # defence, early: overtrump
        1.0,  # defence, late: heuristic's card
        0.0,  # defence, late: trump
        0.0,  # defence, late: pts
        0.0,  # defence, late: rank in its suit
        0.0,  # defence, late: master
        0.0,  # defence, late: lead
        0.0,  # defence, late: lead x trump
        0.0,  # defence, late: lead x master
        0.0,  # defence, late: lead x pts
        0.0,  # defence, late: wins the trick so far
        0.0,  # defence, late: wins x last to play
        0.0,  # defence, late: wins x trick pts
        0.0,  # defence, late: partner winning x pts
        0.0,  # defence, late: partner winning x trump
        0.0,  # defence, late: loses x pts
        0.0,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        0.0,  # defence, late: unseen trumps x lead x trump
        0.0,  # defence, late: length of its suit
        0.0,  # defence, late: lowest of its suit
        0.0,  # defence, late: highest of its suit
        0.0,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        0.0,  # defence, late: overtrump
        1.0,  # taker, early: heuristic's card
        0.0,  # taker, early: trump
        0.0,  # taker, early: pts
        0.0,  # taker, early: rank in its suit
        0.0,  # taker, early: master
        0.0,  # taker, early: lead
        0.0,  # taker, early: lead x trump
        0.0,  # taker, early: lead x master
        0.0,  # taker, early: lead x pts
        0.0,  # taker, early: wins the trick so far
        0.0,  # taker, early: wins x last to play
        0.0,  # taker, early: wins x trick pts
        0.0,  # taker, early: partner winning x pts
        0.0,  # taker, early: partner winning x trump
        0.0,  # taker, early: loses x pts
        0.0,  # taker, early: ruff
        0.0,  # taker, early: taker side x lead x trump
        0.0,  # taker, early: unseen trumps x lead x trump
        0.0,  # taker, early: length of its suit
        0.0,  # taker, early: lowest of its suit
        0.0,  # taker, early: highest of its suit
        0.0,  # taker, early: tricks left x pts
        0.0,  # taker, early: taker side x heuristic's card
        0.0,  # taker, early: overtrump
        1.0,  # taker, late: heuristic's card
        0.0,  # taker, late: trump
        0.0,  # taker, late: pts
        0.0,  # taker, late: rank in its suit
        0.0,  # taker, late: master
        0.0,  # taker, late: lead
        0.0,  # taker, late: lead x trump
        0.0,  # taker, late: lead x master
        0.0,  # taker, late: lead x pts
        0.0,  # taker, late: wins the trick so far
        0.0,  # taker, late: wins x last to play
        0.0,  # taker, late: wins x trick pts
        0.0,  # taker, late: partner winning x pts
        0.0,  # taker, late: partner winning x trump
        0.0,  # taker, late: loses x pts
        0.0,  # taker, late: ruff
        0.0,  # taker, late: taker side x lead x trump
        0.0,  # taker, late: unseen trumps x lead x trump
        0.0,  # taker, late: length of its suit
        0.0,  # taker, late: lowest of its suit
        0.0,  # taker, late: highest of its suit
        0.0,  # taker, late: tricks left x pts
        0.0,  # taker, late: taker side x heuristic's card
        0.0,  # taker, late: overtrump
    ],
    [  # piekjas3
        1.0,  # defence, early: heuristic's card
        0.0,  # defence, early: trump
        0.0,  # defence, early: pts
        0.0,  # defence, early: rank in its suit
        0.0,  # defence, early: master
        0.0,  # defence, early: lead
        0.0,  # defence, early: lead x trump
        0.0,  # defence, early: lead x master
        0.0,  # defence, early: lead x pts
        0.0,  # defence, early: wins the trick so far
        0.0,  # defence, early: wins x last to play
        0.0,  # defence, early: wins x trick pts
        0.0,  # defence, early: partner winning x pts
        0.0,  # defence, early: partner winning x trump
        0.0,  # defence, early: loses x pts
        0.0,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        0.0,  # defence, early: unseen trumps x lead x trump
        0.0,  # defence, early: length of its suit
        0.0,  # defence, early: lowest of its suit
        0.0,  # defence, early: highest of its suit
        0.0,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        0.0,  # defence, early: overtrump
        1.0,  # defence, late: heuristic's card
        0.0,  # defence, late: trump
        0.0,  # defence, late: pts
        0.0,  # defence, late: rank in its suit
        0.0,  # defence, late: master
        0.0,  # defence, late: lead
        0.0,  # defence, late: lead x trump
        0.0,  # defence, late: lead x master
        0.0,  # defence, late: lead x pts
        0.0,  # defence, late: wins the trick so far
        0.0,  # defence, late: wins x last to play
        0.0,  # defence, late: wins x trick pts
        0.0,  # defence, late: partner winning x pts
        0.0,  # defence, late: partner winning x trump
        0.0,  # defence, late: loses x pts
        0.0,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        0.0,  # defence, late: unseen trumps x lead x trump
        0.0,  # defence, late: length of its suit
        0.0,  # defence, late: lowest of its suit
        0.0,  # defence, late: highest of its suit
        0.0,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        0.0,  # defence, late: overtrump
        1.0,  # taker, early: heuristic's card
        0.0,  # taker, early: trump
        0.0,  # taker, early: pts
        0.0,  # taker, early: rank in its suit
        0.0,  # taker, early: master
        0.0,  # taker, early: lead
        0.0,  # taker, early: lead x trump
        0.0,  # taker, early: lead x master
        0.0,  # taker, early: lead x pts
        0.0,  # taker, early: wins the trick so far
        0.0,  # taker, early: wins x last to play
        0.0,  # taker, early: wins x trick pts
        0.0,  # taker, early: partner winning x pts
        0.0,  # taker, early: partner winning x trump
        0.0,  # taker, early: loses x pts
        0.0,  # taker, early: ruff
        0.0,  # taker, early: taker side x lead x trump
        0.0,  # taker, early: unseen trumps x lead x trump
        0.0,  # taker, early: length of its suit
        0.0,  # taker, early: lowest of its suit
        0.0,  # taker, early: highest of its suit
        0.0,  # taker, early: tricks left x pts
        0.0,  # taker, early: taker side x heuristic's card
        0.0,  # taker, early: overtrump
        1.0,  # taker, late: heuristic's card
        0.0,  # taker, late: trump
        0.0,  # taker, late: pts
        0.0,  # taker, late: rank in its suit
        0.0,  # taker, late: master
        0.0,  # taker, late: lead
        0.0,  # taker, late: lead x trump
        0.0,  # taker, late: lead x master
        0.0,  # taker, late: lead x pts
        0.0,  # taker, late: wins the trick so far
        0.0,  # taker, late: wins x last to play
        0.0,  # taker, late: wins x trick pts
        0.0,  # taker, late: partner winning x pts
        0.0,  # taker, late: partner winning x trump
        0.0,  # taker, late: loses x pts
        0.0,  # taker, late: ruff
        0.0,  # taker, late: taker side x lead x trump
        0.0,  # taker, late: unseen trumps x lead x trump
        0.0,  # taker, late: length of its suit
        0.0,  # taker, late: lowest of its suit
        0.0,  # taker, late: highest of its suit
        0.0,  # taker, late: tricks left x pts
        0.0,  # taker, late: taker side x heuristic's card
        0.0,  # taker, late: overtrump
    ],
    [  # piekjas4
        1.0,  # defence, early: heuristic's card
        0.0,  # defence, early: trump
        0.0,  # defence, early: pts
        0.0,  # defence, early: rank in its suit
        0.0,  # defence, early: master
        0.0,  # defence, early: lead
        0.0,  # defence, early: lead x trump
        0.0,  # defence, early: lead x master
        0.0,  # defence, early: lead x pts
        0.0,  # defence, early: wins the trick so far
        0.0,  # defence, early: wins x last to play
        0.0,  # defence, early: wins x trick pts
        0.0,  # defence, early: partner winning x pts
        0.0,  # defence, early: partner winning x trump
        0.0,  # defence, early: loses x pts
        0.0,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        0.0,  # defence, early: unseen trumps x lead x trump
        0.0,  # defence, early: length of its suit
        0.0,  # defence, early: lowest of its suit
        0.0,  # defence, early: highest of its suit
        0.0,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        0.0,  # defence, early: overtrump
        1.0,  # defence, late: heuristic's card
        0.0,  # defence, late: trump
        0.0,  # defence, late: pts
        0.0,  # defence, late: rank in its suit
        0.0,  # defence, late: master
        0.0,  # defence, late: lead
        0.0,  # defence, late: lead x trump
        0.0,  # defence, late: lead x master
        0.0,  # defence, late: lead x pts
        0.0,  # defence, late: wins the trick so far
        0.0,  # defence, late: wins x last to play
        0.0,  # defence, late: wins x trick pts
        0.0,  # defence, late: partner winning x pts
        0.0,  # defence, late: partner winning x trump
        0.0,  # defence, late: loses x pts
        0.0,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        0.0,  # defence, late: unseen trumps x lead x trump
        0.0,  # defence, late: length of its suit
        0.0,  # defence, late: lowest of its suit
        0.0,  # defence, late: highest of its suit
        0.0,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        0.0,  # defence, late: overtrump
        1.0,  # taker, early: heuristic's card
        0.0,  # taker, early: trump
        0.0,  # taker, early: pts
        0.0,  # taker, early: rank in its suit
        0.0,  # taker, early: master
        0.0,  # taker, early: lead
        0.0,  # taker, early: lead x trump
        0.0,  # taker, early: lead x master
        0.0,  # taker, early: lead x pts
        0.0,  # taker, early: wins the trick so far
        0.0,  # taker, early: wins x last to play
        0.0,  # taker, early: wins x trick pts
        0.0,  # taker, early: partner winning x pts
        0.0,  # taker, early: partner winning x trump
        0.0,  # taker, early: loses x pts
        0.0,  # taker, early: ruff
        0.0,  # taker, early: taker side x lead x trump
        0.0,  # taker, early: unseen trumps x lead x trump
        0.0,  # taker, early: length of its suit
        0.0,  # taker, early: lowest of its suit
        0.0,  # taker, early: highest of its suit
        0.0,  # taker, early: tricks left x pts
        0.0,  # taker, early: taker side x heuristic's card
        0.0,  # taker, early: overtrump
        1.0,  # taker, late: heuristic's card
        0.0,  # taker, late: trump
        0.0,  # taker, late: pts
        0.0,  # taker, late: rank in its suit
        0.0,  # taker, late: master
        0.0,  # taker, late: lead
        0.0,  # taker, late: lead x trump
        0.0,  # taker, late: lead x master
        0.0,  # taker, late: lead x pts
        0.0,  # taker, late: wins the trick so far
        0.0,  # taker, late: wins x last to play
        0.0,  # taker, late: wins x trick pts
        0.0,  # taker, late: partner winning x pts
        0.0,  # taker, late: partner winning x trump
        0.0,  # taker, late: loses x pts
        0.0,  # taker, late: ruff
        0.0,  # taker, late: taker side x lead x trump
        0.0,  # taker, late: unseen trumps x lead x trump
        0.0,  # taker, late: length of its suit
        0.0,  # taker, late: lowest of its suit
        0.0,  # taker, late: highest of its suit
        0.0,  # taker, late: tricks left x pts
        0.0,  # taker, late: taker side x heuristic's card
        0.0,  # taker, late: overtrump
    ],
    [  # dekjas
        1.0,  # defence, early: heuristic's card
        0.0,  # defence, early: trump
        0.0,  # defence, early: pts
        0.0,  # defence, early: rank in its suit
        0.0,  # defence, early: master
        0.0,  # defence, early: lead
        0.0,  # defence, early: lead x trump
        0.0,  # defence, early: lead x master
        0.0,  # defence, early: lead x pts
        0.0,  # defence, early: wins the trick so far
        0.0,  # defence, early: wins x last to play
        0.0,  # defence, early: wins x trick pts
        0.0,  # defence, early: partner winning x pts
        0.0,  # defence, early: partner winning x trump
        0.0,  # defence, early: loses x pts
        0.0,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        0.0,  # defence, early: unseen trumps x lead x trump
        0.0,  # defence, early: length of its suit
        0.0,  # defence, early: lowest of its suit
        0.0,  # defence, early: highest of its suit
        0.0,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        0.0,  # defence, early: overtrump
        1.0,  # defence, late: heuristic's card
        0.0,  # defence, late: trump
        0.0,  # defence, late: pts
        0.0,  # defence, late: rank in its suit
        0.0,  # defence, late: master
        0.0,  # defence, late: lead
        0.0,  # defence, late: lead x trump
        0.0,  # defence, late: lead x master
        0.0,  # defence, late: lead x pts
        0.0,  # defence, late: wins the trick so far
        0.0,  # defence, late: wins x last to play
        0.0,  # defence, late: wins x trick pts
        0.0,  # defence, late: partner winning x pts
        0.0,  # defence, late: partner winning x trump
        0.0,  # defence, late: loses x pts
        0.0,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        0.0,  # defence, late: unseen trumps x lead x trump
        0.0,  # defence, late: length of its suit
        0.0,  # defence, late: lowest of its suit
        0.0,  # defence, late: highest of its suit
        0.0,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        0.0,  # defence, late: overtrump
        1.0,  # taker, early: heuristic's card
        0.0,  # taker, early: trump
        0.0,  # taker, early: pts
        0.0,  # taker, early: rank in its suit
        0.0,  # taker, early: master
        0.0,  # taker, early: lead
        0.0,  # taker, early: lead x trump
        0.0,  # taker, early: lead x master
        0.0,  # taker, early: lead x pts
        0.0,  # taker, early: wins the trick so far
        0.0,  # taker, early: wins x last to play
        0.0,  # taker, early: wins x trick pts
        0.0,  # taker, early: partner winning x pts
        0.0,  # taker, early: partner winning x trump
        0.0,  # taker, early: loses x pts
        0.0,  # taker, early: ruff
        0.0,  # taker, early: taker side x lead x trump
        0.0,  # taker, early: unseen trumps x lead x trump
        0.0,  # taker, early: length of its suit
        0.0,  # taker, early: lowest of its suit
        0.0,  # taker, early: highest of its suit
        0.0,  # taker, early: tricks left x pts
        0.0,  # taker, early: taker side x heuristic's card
        0.0,  # taker, early: overtrump
        1.0,  # taker, late: heuristic's card
        0.0,  # taker, late: trump
        0.0,  # taker, late: pts
        0.0,  # taker, late: rank in its suit
        0.0,  # taker, late: master
        0.0,  # taker, late: lead
        0.0,  # taker, late: lead x trump
        0.0,  # taker, late: lead x master
        0.0,  # taker, late: lead x pts
        0.0,  # taker, late: wins the trick so far
        0.0,  # taker, late: wins x last to play
        0.0,  # taker, late: wins x trick pts
        0.0,  # taker, late: partner winning x pts
        0.0,  # taker, late: partner winning x trump
        0.0,  # taker, late: loses x pts
        0.0,  # taker, late: ruff
        0.0,  # taker, late: taker side x lead x trump
        0.0,  # taker, late: unseen trumps x lead x trump
        0.0,  # taker, late: length of its suit
        0.0,  # taker, late: lowest of its suit
        0.0,  # taker, late: highest of its suit
        0.0,  # taker, late: tricks left x pts
        0.0,  # taker, late: taker side x heuristic's card
        0.0,  # taker, late: overtrump
    ],
], np.float64)
assert WEIGHTS.shape == (len(ROW_LABELS), N_WEIGHTS)
PROVENANCE = {
    "classic": {
        "anchor": 10.0,
        "held_out": {
            "decisions": 16439,
            "difference": -0.2140641158221303,
            "difference_ci": [
                -0.3638853445517247,
                -0.0642428870925359
            ],
            "heuristic_loss": 3.1110773161384513,
            "net_loss": 2.897013200316321
        },
        "seed": 1,
        "test_seed": 2,
        "train_decisions": 48952
    },
    "dekjas": None,
    "piekjas2": None,
    "piekjas3": None,
    "piekjas4": None
}
